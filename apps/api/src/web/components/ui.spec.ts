import { type ComponentChildren, h } from 'preact';
import { renderToStaticMarkup } from 'preact-render-to-string';

import { exactNumber } from '../../common/decimal.js';
import { Amount, AmountMap, Rate, Table, Time } from './ui.js';

describe('the web kit', () => {
  describe('Table', () => {
    const render = (...rows: ComponentChildren[]) =>
      renderToStaticMarkup(h(Table, { caption: 'Things', head: ['Name', 'Status', 'When'], rows: 1 }, rows));

    it('labels each cell with its column heading, for the cards a phone shows, and keeps table roles', () => {
      const html = render(h('tr', null, h('td', null, 'ada'), h('td', null, 'ACTIVE'), h('td', null, 'now')));
      expect(html).toContain(
        '<tr role="row"><td data-label="Name" role="cell">ada</td><td data-label="Status" role="cell">ACTIVE</td>' +
          '<td data-label="When" role="cell">now</td></tr>',
      );
      expect(html).toContain('class="table-wrap stack"');
      // Cards are not CSS tables, which browsers then drop from the accessibility tree unless named in ARIA.
      expect(html).toContain('<table role="table">');
      expect(html).toContain('<th scope="col" role="columnheader">Name</th>');
    });

    it('counts a spanning cell as its columns, keeps a label a cell names, and labels row headings', () => {
      const html = render(
        h('tr', null, h('th', { scope: 'row' }, 'a'), h('td', { colSpan: 2 }, 'wide')),
        h('tr', null, h('td', { colSpan: 2 }, 'x'), h('td', { 'data-label': 'Own' }, 'y')),
      );
      expect(html).toContain(
        '<th scope="row" data-label="Name" role="rowheader">a</th><td colspan="2" data-label="Status" role="cell">wide</td>',
      );
      expect(html).toContain(
        '<td colspan="2" data-label="Name" role="cell">x</td><td data-label="Own" role="cell">y</td>',
      );
    });

    it('stays a table to scroll sideways when asked', () => {
      const html = renderToStaticMarkup(
        h(Table, { caption: 'T', head: ['A'], rows: 1, stack: false }, h('tr', null, h('td', null, '1'))),
      );
      expect(html).toContain('class="table-wrap"');
      expect(html).toContain('<table><caption>');
    });
  });

  it('writes an amount grouped with its unit, the exact value in value and title', () => {
    expect(renderToStaticMarkup(h(Amount, { value: exactNumber('1234567.12345678'), unit: 'EUR' }))).toBe(
      '<data class="amount" value="1234567.12345678" title="Exactly 1234567.12345678 EUR">1,234,567.12345678 EUR</data>',
    );
    expect(renderToStaticMarkup(h(AmountMap, { amounts: { EUR: 25000, BTC: 0.5 } }))).toBe(
      '<data class="amount" value="25000" title="Exactly 25000 EUR">25,000 EUR</data>, ' +
        '<data class="amount" value="0.5" title="Exactly 0.5 BTC">0.5 BTC</data>',
    );
  });

  it('writes a rate as a percentage, the stored fraction in value and title', () => {
    expect(renderToStaticMarkup(h(Rate, { value: 0.0015 }))).toBe(
      '<data class="rate" value="0.0015" title="Exactly 0.0015">0.15 %</data>',
    );
  });

  it('writes a time in UTC, the exact value in datetime and title for the script and the reader', () => {
    expect(renderToStaticMarkup(h(Time, { iso: '2030-01-31T12:00:05.123Z' }))).toBe(
      '<time datetime="2030-01-31T12:00:05.123Z" title="2030-01-31T12:00:05.123Z">2030-01-31 12:00:05 UTC</time>',
    );
    expect(renderToStaticMarkup(h(Time, { iso: null, empty: 'not yet' }))).toBe(
      '<span class="muted">not yet</span>',
    );
  });
});
