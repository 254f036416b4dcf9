/** @jest-environment jsdom */
import { jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { dismissToast, currentToasts, MAX_TOASTS, showToast, TOAST_DURATION_MS } from './toast-store';
import { Toaster } from './toaster';

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  act(() => currentToasts().forEach((toast) => dismissToast(toast.id)));
  jest.useRealTimers();
});

describe('toasts', () => {
  test('show top-right and close by themselves after 5000 ms', () => {
    render(<Toaster dismissLabel="Dismiss" />);
    act(() => void showToast({ message: 'Saved' }));
    expect(screen.getByText('Saved')).toBeTruthy();
    expect(document.querySelector('.toaster')).not.toBeNull();
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('Saved')).not.toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  test('close on click', () => {
    render(<Toaster dismissLabel="Dismiss" />);
    act(() => void showToast({ message: 'Click me' }));
    fireEvent.click(screen.getByText('Click me'));
    expect(screen.queryByText('Click me')).toBeNull();
  });

  test('pause while hovered', () => {
    render(<Toaster dismissLabel="Dismiss" />);
    act(() => void showToast({ message: 'Hover me' }));
    const toast = screen.getByText('Hover me').closest('li')!;
    act(() => jest.advanceTimersByTime(3000));
    fireEvent.mouseEnter(toast);
    act(() => jest.advanceTimersByTime(10_000));
    expect(screen.queryByText('Hover me')).not.toBeNull();
    fireEvent.mouseLeave(toast);
    act(() => jest.advanceTimersByTime(1999));
    expect(screen.queryByText('Hover me')).not.toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Hover me')).toBeNull();
  });

  test('keep at most 20, dropping the oldest', () => {
    render(<Toaster dismissLabel="Dismiss" />);
    act(() => {
      for (let i = 1; i <= MAX_TOASTS + 3; i++) showToast({ message: `Toast ${i}` });
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(MAX_TOASTS);
    expect(screen.queryByText('Toast 3')).toBeNull();
    expect(screen.queryByText('Toast 4')).not.toBeNull();
  });

  test('an action runs without closing by the click', () => {
    let reloads = 0;
    render(<Toaster dismissLabel="Dismiss" />);
    act(() => void showToast({ message: 'New version', durationMs: Infinity, action: { label: 'Reload', onClick: () => void reloads++ } }));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reloads).toBe(1);
    act(() => jest.advanceTimersByTime(60_000));
    expect(screen.queryByText('New version')).not.toBeNull();
  });
});
