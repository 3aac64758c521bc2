// A user's KYC history, newest first: what happened when, with the operator's text on a decision. The same
// on the dashboard's user page and the console's KYC file, so organisation and reviewer read one story.
import type { KycHistoryItem } from '../../kyc/kyc.repository.js';
import { Table, Time } from './ui.js';

export function KycHistory(props: { readonly history: readonly KycHistoryItem[] }) {
  return (
    <Table
      caption="KYC events, newest first"
      head={['When', 'Event', 'Note']}
      rows={props.history.length}
      empty="No KYC event yet."
    >
      {props.history.map((item) => (
        <tr key={item.eventId}>
          <td>
            <Time iso={item.at.toISOString()} />
          </td>
          <td>{item.eventType}</td>
          <td class="wrap">{item.message ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}
