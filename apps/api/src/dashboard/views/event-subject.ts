// What an event is about, in the words a person looks for in a list: the user of a Users event, the order
// (side, pair, id, user) of an Orders event, the policy change of an Actions event, the notice of a
// SystemInformation one. Read from the event's data as stored; an unexpected shape gives a plain fallback.
import type { EntityName } from '@svc/protocol';

export interface EventSubject {
  /** One line: "user demo-trader", "BUY BTC_EUR · order 12". */
  readonly text: string;
  /** The user it concerns, when it concerns one (for a link to the user's page). */
  readonly orgUserId: string | null;
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

export function eventSubject(entity: EntityName, dataText: string): EventSubject {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(dataText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      data = parsed as Record<string, unknown>;
    }
  } catch {
    // Stored data is JSON; were it not, the entity alone names the event.
  }
  const orgUserId = str(data.orgUserId) ?? null;
  switch (entity) {
    case 'Users':
      return { text: orgUserId ? `user ${orgUserId}` : 'a user', orgUserId };
    case 'Orders': {
      const id = typeof data.id === 'number' ? `order ${data.id}` : 'an order';
      const trade = [str(data.side), str(data.symbol)].filter(Boolean).join(' ');
      return { text: trade ? `${trade} · ${id}` : id, orgUserId };
    }
    case 'Actions':
      return { text: `policy: ${str(data.name) ?? 'a change'}`, orgUserId: null };
    case 'SystemInformation': {
      const notice = [str(data.event), str(data.entity)].filter(Boolean).join(' ');
      return { text: `notice: ${notice || 'system information'}`, orgUserId: null };
    }
    default:
      return { text: String(entity), orgUserId };
  }
}
