import { useState, type ReactNode } from 'react';

export interface Column<R> {
  key: string;
  label: string;
  /** The value sorted by; null sorts last. Columns without one are not sortable. */
  sortValue?: (row: R) => number | string | null | undefined;
  render: (row: R) => ReactNode;
  numeric?: boolean;
}

/** A semantic table whose column headers are sort buttons (aria-sort tells the current order). */
export function SortableTable<R>({ caption, columns, rows, rowKey, initialSort }: { caption: string; columns: Column<R>[]; rows: R[]; rowKey: (row: R) => string; initialSort?: { key: string; descending: boolean } }) {
  const [sort, setSort] = useState(initialSort ?? null);
  const column = columns.find((c) => c.key === sort?.key);
  const sorted = column?.sortValue
    ? [...rows].sort((x, y) => {
        const a = column.sortValue!(x);
        const b = column.sortValue!(y);
        if (a == null && b == null) return 0;
        if (a == null) return 1;
        if (b == null) return -1;
        const order = a < b ? -1 : a > b ? 1 : 0;
        return sort!.descending ? -order : order;
      })
    : rows;
  return (
    <div className="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              return (
                <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={active ? (sort!.descending ? 'descending' : 'ascending') : c.sortValue ? 'none' : undefined}>
                  {c.sortValue ? (
                    <button type="button" className="sort" onClick={() => setSort({ key: c.key, descending: active ? !sort!.descending : c.numeric === true })}>
                      {c.label}
                      <span aria-hidden="true">{active ? (sort!.descending ? ' ▼' : ' ▲') : ' ⇅'}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c, i) =>
                i === 0 ? (
                  <th key={c.key} scope="row">
                    {c.render(row)}
                  </th>
                ) : (
                  <td key={c.key} className={c.numeric ? 'num' : undefined}>
                    {c.render(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
