// Prices: every operator price by symbol, and for TRADING_OPS the form that sets one (exact decimals: the
// digits typed are the digits stored, never rounded).
import type { Page } from '../../common/pagination.js';
import type { PriceView } from '../../prices/price.view.js';
import { PostForm } from '../../web/components/forms.js';
import { ListTable } from '../../web/components/list-table.js';
import { Amount, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';
import { Done, mayAct } from './done.js';

export function PricesPage(props: {
  readonly ctx: ConsoleContext;
  readonly prices: Page<PriceView>;
  readonly cursor: string | undefined;
  readonly done: string | undefined;
}) {
  const { ctx, prices } = props;
  return (
    <ConsolePage ctx={ctx} title="Prices" section="/console/prices">
      <Done done={props.done} messages={{ set: 'The price is set: orders of the pair execute at it now.' }} />
      {mayAct(ctx.operator.role, 'TRADING_OPS') ? (
        <section aria-labelledby="set-heading">
          <h2 id="set-heading">Set a price</h2>
          <PostForm action="/console/prices" csrf={ctx.csrf} class="stacked" label="Set a price">
            <label for="price-symbol">
              Symbol
              <span class="hint">BASE_QUOTE, e.g. BTC_EUR</span>
              <input id="price-symbol" name="symbol" required maxLength={25} autocomplete="off" />
            </label>
            <label for="price-value">
              Price
              <span class="hint">In the quote currency, greater than 0, at most 8 decimals</span>
              <input id="price-value" name="price" required inputMode="decimal" autocomplete="off" />
            </label>
            <button type="submit">Set the price</button>
          </PostForm>
        </section>
      ) : (
        <p class="muted">Setting a price needs the TRADING_OPS role.</p>
      )}
      <h2>Prices</h2>
      <ListTable
        pages={{ path: '/console/prices', cursor: props.cursor, nextCursor: prices.nextCursor }}
        caption="Prices, by symbol"
        head={['Symbol', 'Price', 'Updated']}
        numeric={['Price']}
        rows={prices.items.length}
        empty="No price is set: orders are refused until one is."
      >
        {prices.items.map((price) => (
          <tr key={price.symbol} id={`price-${price.symbol}`}>
            <td>
              <code>{price.symbol}</code>
            </td>
            <td class="num">
              <Amount value={price.price} unit={price.symbol.split('_')[1]} />
            </td>
            <td>
              <Time iso={price.updatedAt} />
            </td>
          </tr>
        ))}
      </ListTable>
    </ConsolePage>
  );
}
