// The form under a list that downloads its rows as CSV for a time range (common/export-range.ts): two
// day fields (UTC; left empty, the last 30 days) and a button; a GET, so the download is a plain link.
export function ExportForm(props: {
  /** The export's path, e.g. /dashboard/orders/export.csv. */
  readonly action: string;
  /** What is exported, e.g. "orders". */
  readonly what: string;
}) {
  const id = props.action.replace(/[^a-z0-9]+/gi, '-');
  return (
    <form
      method="get"
      action={props.action}
      class="filters export"
      aria-label={`Download ${props.what} as CSV`}
    >
      <label for={`${id}-since`}>
        From (UTC day)
        <input id={`${id}-since`} type="date" name="since" />
      </label>
      <label for={`${id}-until`}>
        To (UTC day, included)
        <input id={`${id}-until`} type="date" name="until" />
      </label>
      <button type="submit">Download {props.what} as CSV</button>
    </form>
  );
}
