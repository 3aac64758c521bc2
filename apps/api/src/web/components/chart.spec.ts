import { h, type VNode } from 'preact';
import { renderToStaticMarkup } from 'preact-render-to-string';

import { BarChart, type ChartProps, LineChart } from './chart.js';
import { compactNumber, labelledIndexes, valueScale } from './chart-scale.js';

const hours = ['10:00', '11:00', '12:00', '13:00'];

const deliveries: ChartProps = {
  id: 'deliveries',
  title: 'Deliveries per hour',
  summary: 'Attempts delivered and failed in each of the last 4 hours.',
  pointName: 'Hour (UTC)',
  points: hours,
  unit: 'attempts',
  whole: true,
  series: [
    { label: 'Delivered', tone: 'good', values: [3, 0, 7, 2] },
    { label: 'Failed', tone: 'bad', values: [1, 0, 2, 0] },
  ],
};

const render = (node: VNode<any>) => renderToStaticMarkup(node); // eslint-disable-line @typescript-eslint/no-explicit-any

/** The numbers of `<rect>` attributes named, in order. */
function rects(html: string, attribute: string): number[] {
  return [...html.matchAll(new RegExp(`<rect[^>]* ${attribute}="([\\d.]+)"`, 'g'))].map((m) => Number(m[1]));
}

describe('charts', () => {
  describe('the value axis', () => {
    it('ends on a round number at or above the largest value, with round ticks from 0', () => {
      expect(valueScale([3, 9, 7])).toEqual({ top: 10, ticks: [0, 2.5, 5, 7.5, 10] });
      expect(valueScale([3, 9, 7], { whole: true })).toEqual({ top: 9, ticks: [0, 3, 6, 9] });
      expect(valueScale([0.3, 0.1])).toEqual({ top: 0.3, ticks: [0, 0.1, 0.2, 0.3] });
      expect(valueScale([1234])).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
    });

    it('gives an empty or all-zero chart the axis 0 to 1', () => {
      expect(valueScale([])).toEqual({ top: 1, ticks: [0, 1] });
      expect(valueScale([0, null, 0])).toEqual({ top: 1, ticks: [0, 1] });
    });

    it('labels at most the number asked of a crowded axis, always the last', () => {
      expect(labelledIndexes(4, 8)).toEqual([0, 1, 2, 3]);
      const of24 = labelledIndexes(24, 8);
      expect(of24.length).toBeLessThanOrEqual(8);
      expect(of24.at(-1)).toBe(23);
      expect(labelledIndexes(0, 8)).toEqual([]);
    });

    it('writes ticks short', () => {
      expect([
        compactNumber(950),
        compactNumber(12_500),
        compactNumber(3_400_000),
        compactNumber(0.25),
      ]).toEqual(['950', '12.5k', '3.4M', '0.25']);
    });
  });

  describe('bars', () => {
    const html = render(h(BarChart, deliveries));

    it('is an image named by its title and summary, with no style attribute', () => {
      expect(html).toContain('role="img"');
      expect(html).toContain('aria-labelledby="deliveries-title deliveries-desc"');
      expect(html).toContain('<title id="deliveries-title">Deliveries per hour</title>');
      expect(html).toContain('<desc id="deliveries-desc">Attempts delivered and failed');
      expect(html).not.toMatch(/style=/);
    });

    it('stacks each point’s series with heights in proportion, leaving out zeros', () => {
      // 3+1, 7+2, 2: five bars; hour 11:00 has none.
      expect(html.match(/<rect /g)).toHaveLength(5);
      const heights = rects(html, 'height');
      const [delivered10, failed10, delivered12] = heights as [number, number, number];
      expect(delivered10 / failed10).toBeCloseTo(3, 1);
      expect(delivered12 / delivered10).toBeCloseTo(7 / 3, 1);
      expect(html).toContain('class="chart-bar chart-tone-good"');
      expect(html).toContain('class="chart-bar chart-tone-bad"');
      expect(html).toContain('<title>12:00: Failed 2</title>');
    });

    it('labels the value axis with its unit and ticks, and has a legend of the series', () => {
      expect(html).toContain('>attempts</text>');
      expect(html).toMatch(/class="chart-tick"[^>]*>9<\/text>/);
      expect(html).toContain('<ul class="chart-legend">');
      expect(html).toContain('chart-swatch chart-tone-good');
    });

    it('carries every number in a table under the chart', () => {
      expect(html).toContain('<details class="chart-data"><summary>The numbers</summary>');
      expect(html).toContain('<caption>Deliveries per hour (attempts)</caption>');
      expect(html).toMatch(/<th scope="col"[^>]*>Hour \(UTC\)<\/th>/);
      expect(html).toMatch(
        /<th scope="row"[^>]*>11:00<\/th><td class="num"[^>]*>0<\/td><td class="num"[^>]*>0<\/td>/,
      );
      expect(html).toMatch(
        /<th scope="row"[^>]*>12:00<\/th><td class="num"[^>]*>7<\/td><td class="num"[^>]*>2<\/td>/,
      );
    });
  });

  describe('lines', () => {
    it('draws each series as a path, broken where a value is missing', () => {
      const html = render(
        h(LineChart, {
          ...deliveries,
          id: 'latency',
          unit: 'ms',
          whole: false,
          series: [
            { label: 'p50', tone: 'accent', values: [120, null, 80, 90] },
            { label: 'p95', tone: 'warn', values: [400, 380, 300, 350] },
          ],
        }),
      );
      const paths = [...html.matchAll(/<path class="chart-line" d="([^"]+)"/g)].map((m) => m[1] ?? '');
      expect(paths).toHaveLength(2);
      expect(paths[0]?.match(/M/g)).toHaveLength(2);
      expect(paths[1]?.match(/M/g)).toHaveLength(1);
      expect(paths[1]?.match(/L/g)).toHaveLength(3);
      expect(html).toContain('<g class="chart-series chart-tone-accent">');
      expect(html).toMatch(
        /<th scope="row"[^>]*>11:00<\/th><td class="num"[^>]*>–<\/td><td class="num"[^>]*>380<\/td>/,
      );
    });

    it('places points at their x when given (prices at irregular times) and shows exact texts', () => {
      const html = render(
        h(LineChart, {
          id: 'price',
          title: 'BTC_EUR',
          summary: 'The price at each tick.',
          pointName: 'Time (UTC)',
          points: ['10:00:00', '10:00:01', '10:00:10'],
          x: [0, 1000, 10_000],
          unit: 'EUR',
          series: [
            {
              label: 'Price',
              tone: 'accent',
              values: [50000.1, 50000.2, 50000.3],
              texts: ['50000.10000000000000000001', '50000.2', '50000.3'],
            },
          ],
        }),
      );
      const xs = [...html.matchAll(/<circle class="chart-dot" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
      expect(xs).toHaveLength(3);
      const [a, b, c] = xs as [number, number, number];
      expect((b - a) / (c - a)).toBeCloseTo(0.1, 2);
      expect(html).toMatch(/<td class="num"[^>]*>50000\.10000000000000000001<\/td>/);
      // One series: no legend.
      expect(html).not.toContain('chart-legend');
    });
  });
});
