import { addRow, changeRow, removeRow, rowsOf, rowsWithValue, timesOf } from './restart-times';

describe('restart time rows', () => {
  test("a stream's times become rows with their own ids, every day or on a weekday", () => {
    expect(rowsOf(['03:00', 'mon 15:00'])).toEqual([
      { id: 1, day: '', value: '03:00' },
      { id: 2, day: 'mon', value: '15:00' },
    ]);
    expect(rowsOf([])).toEqual([]);
  });

  test('a new row starts at 03:00 every day, then twelve hours after the last one, on its day', () => {
    const one = addRow([]);
    expect(one).toEqual([{ id: 1, day: '', value: '03:00' }]);
    const two = addRow(one);
    expect(two.at(-1)).toEqual({ id: 2, day: '', value: '15:00' });
    expect(addRow(two).at(-1)).toEqual({ id: 3, day: '', value: '03:00' });
    expect(addRow([{ id: 7, day: 'sun', value: '' }]).at(-1)).toEqual({ id: 8, day: 'sun', value: '03:00' });
  });

  test('rows change and go away by id, the others keep theirs', () => {
    const rows = rowsOf(['03:00', '15:00', '21:30']);
    expect(changeRow(rows, 2, { value: '16:45', day: 'fri' })).toEqual([
      { id: 1, day: '', value: '03:00' },
      { id: 2, day: 'fri', value: '16:45' },
      { id: 3, day: '', value: '21:30' },
    ]);
    const left = removeRow(rows, 2);
    expect(left).toEqual([
      { id: 1, day: '', value: '03:00' },
      { id: 3, day: '', value: '21:30' },
    ]);
    expect(addRow(left).at(-1)?.id).toBe(4);
  });

  test('blank rows are not sent; duplicates are, for the API to refuse; a weekday goes before its time', () => {
    expect(
      timesOf([
        { id: 1, day: '', value: '03:00' },
        { id: 2, day: 'tue', value: ' ' },
        { id: 3, day: '', value: '03:00' },
        { id: 4, day: 'sat', value: '06:30' },
      ]),
    ).toEqual(['03:00', '03:00', 'sat 06:30']);
  });

  test('the rows a refusal names are found by their day and time, padded or not', () => {
    const rows = [
      { id: 1, day: '', value: '9:05' },
      { id: 2, day: '', value: '15:00' },
      { id: 3, day: '', value: '09:05' },
      { id: 4, day: 'mon', value: '9:05' },
    ] as const;
    expect(rowsWithValue([...rows], '09:05')).toEqual(new Set([1, 3]));
    expect(rowsWithValue([...rows], 'mon 09:05')).toEqual(new Set([4]));
    expect(rowsWithValue([...rows], undefined)).toEqual(new Set());
  });
});
