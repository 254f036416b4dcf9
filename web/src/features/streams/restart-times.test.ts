import { addRow, changeRow, removeRow, rowsOf, rowsWithValue, timesOf } from './restart-times';

describe('restart time rows', () => {
  test('a stream\'s times become rows with their own ids', () => {
    expect(rowsOf(['03:00', '15:00'])).toEqual([{ id: 1, value: '03:00' }, { id: 2, value: '15:00' }]);
    expect(rowsOf([])).toEqual([]);
  });

  test('a new row starts at 03:00, then twelve hours after the last one', () => {
    const one = addRow([]);
    expect(one).toEqual([{ id: 1, value: '03:00' }]);
    const two = addRow(one);
    expect(two.at(-1)).toEqual({ id: 2, value: '15:00' });
    expect(addRow(two).at(-1)).toEqual({ id: 3, value: '03:00' });
    expect(addRow([{ id: 7, value: '' }]).at(-1)).toEqual({ id: 8, value: '03:00' });
  });

  test('rows change and go away by id, the others keep theirs', () => {
    const rows = rowsOf(['03:00', '15:00', '21:30']);
    expect(changeRow(rows, 2, '16:45')).toEqual([{ id: 1, value: '03:00' }, { id: 2, value: '16:45' }, { id: 3, value: '21:30' }]);
    const left = removeRow(rows, 2);
    expect(left).toEqual([{ id: 1, value: '03:00' }, { id: 3, value: '21:30' }]);
    expect(addRow(left).at(-1)?.id).toBe(4);
  });

  test('blank rows are not sent; duplicates are, for the API to refuse', () => {
    expect(timesOf([{ id: 1, value: '03:00' }, { id: 2, value: ' ' }, { id: 3, value: '03:00' }])).toEqual(['03:00', '03:00']);
  });

  test('the rows a refusal names are found by their time, padded or not', () => {
    const rows = [{ id: 1, value: '9:05' }, { id: 2, value: '15:00' }, { id: 3, value: '09:05' }];
    expect(rowsWithValue(rows, '09:05')).toEqual(new Set([1, 3]));
    expect(rowsWithValue(rows, undefined)).toEqual(new Set());
  });
});
