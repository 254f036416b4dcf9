/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { Button, buttonClasses } from './button';

describe('Button', () => {
  test('renders its variant, size and width', () => {
    render(
      <Button variant="dashed" size="small" fullWidth>
        Add
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Add' });
    expect(button.className).toBe('button button--dashed button--small button--full');
    expect(button.getAttribute('type')).toBe('button');
    expect(button.hasAttribute('aria-busy')).toBe(false);
  });

  test('defaults to primary and regular', () => {
    expect(buttonClasses()).toBe('button button--primary button--regular');
    expect(buttonClasses({ variant: 'red', size: 'large' }, 'extra')).toBe('button button--red button--large extra');
  });

  test('loading shows a spinner instead of the label, is busy and cannot be pressed', () => {
    render(<Button loading>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.classList.contains('button--loading')).toBe(true);
    expect(button.querySelector('.spinner')).not.toBeNull();
  });

  test('disabled is disabled', () => {
    render(<Button disabled>Go</Button>);
    expect((screen.getByRole('button', { name: 'Go' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
