/** A plain table of rows that scrolls sideways on a narrow screen. */
export function Table(props: { testId: string; caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <div className="table-scroll">
      <table data-testid={props.testId}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td colSpan={props.head.length} className="hint">
                Nothing in this range.
              </td>
            </tr>
          ) : (
            props.rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are replaced whole, never reordered.
              <tr key={i}>
                {row.map((cell, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns.
                  <td key={j} className={typeof cell === 'number' ? 'num' : undefined}>
                    {typeof cell === 'number' ? cell.toLocaleString() : cell}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
