// Charts drawn on the server as SVG (docs/decisions.md, "Web pages: charts drawn on the server"): stacked
// bars over categories (hours, days, age brackets) and lines over points (hours, days, or the times of a
// pair's prices). No script and no style attribute (the Content-Security-Policy allows neither): colours
// come from classes (chart-tone-*) that charts.css maps to the page's colour variables, so a theme restyles
// them. Every chart carries its numbers as a table in a <details> under it, for screen readers and for
// anyone who wants the exact figures (a series may give the exact text of each value).
import type { ComponentChildren } from 'preact';

import { compactNumber, labelledIndexes, position, valueScale } from './chart-scale.js';
import { Table } from './ui.js';

/** A series' colour, by meaning: good (delivered), bad (failed), warn, accent (a neutral measure), muted. */
export type ChartTone = 'good' | 'bad' | 'warn' | 'accent' | 'muted';

export interface ChartSeries {
  readonly label: string;
  readonly tone: ChartTone;
  /** One value per point, null where there is none (a line breaks there; a bar is left out). */
  readonly values: readonly (number | null)[];
  /** The exact text of each value for the table (stored decimals), when the number would round it. */
  readonly texts?: readonly (string | null)[];
}

export interface ChartProps {
  /** Unique on the page: names the SVG's title and description. */
  readonly id: string;
  readonly title: string;
  /** One sentence saying what the chart shows, for screen readers (the SVG's description). */
  readonly summary: string;
  /** What a point is (the table's first column): "Hour (UTC)", "Day", "Time". */
  readonly pointName: string;
  /** Each point's label, in order: the axis shows some of them, the table all. */
  readonly points: readonly string[];
  readonly series: readonly ChartSeries[];
  /** What the values count or measure, shown over the value axis: "attempts", "ms", "EUR". */
  readonly unit: string;
  /** Values are counts: the axis ticks are whole numbers. */
  readonly whole?: boolean;
}

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 52, right: 12, top: 22, bottom: 30 } as const;
const PLOT_RIGHT = WIDTH - PLOT.right;
const PLOT_BOTTOM = HEIGHT - PLOT.bottom;
/** At most this many category labels under the axis; the rest are in the table. */
const MAX_LABELS = 8;

/** Stacked bars: each point's series on top of each other, in the series' order from the axis up. */
export function BarChart(props: ChartProps) {
  const count = props.points.length;
  const totals = props.points.map((_, i) => props.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const scale = valueScale(totals, { whole: props.whole ?? false });
  const band = (PLOT_RIGHT - PLOT.left) / Math.max(count, 1);
  const barWidth = Math.max(1, band * 0.72);
  const y = (value: number) => position(value, 0, scale.top, PLOT_BOTTOM, PLOT.top);
  const bars = props.points.flatMap((point, i) => {
    let base = 0;
    return props.series.map((series) => {
      const value = series.values[i] ?? 0;
      if (value <= 0) return null;
      const top = y(base + value);
      const height = y(base) - top;
      base += value;
      return (
        <rect
          key={`${series.label}-${i}`}
          class={`chart-bar chart-tone-${series.tone}`}
          x={fixed(PLOT.left + band * i + (band - barWidth) / 2)}
          y={fixed(top)}
          width={fixed(barWidth)}
          height={fixed(height)}
        >
          <title>{`${point}: ${series.label} ${valueText(series, i)}`}</title>
        </rect>
      );
    });
  });
  const xOf = (i: number) => PLOT.left + band * (i + 0.5);
  return (
    <ChartFrame {...props} ticks={scale.ticks} y={y} xOf={xOf}>
      {bars}
    </ChartFrame>
  );
}

/**
 * Lines, one per series, over points spaced evenly, or at `x` (ascending numbers, e.g. times in ms) for
 * points that are not evenly spaced (a pair's price ticks). A point with a null value breaks the line.
 */
export function LineChart(props: ChartProps & { readonly x?: readonly number[] }) {
  const count = props.points.length;
  const scale = valueScale(
    props.series.flatMap((s) => s.values),
    { whole: props.whole ?? false },
  );
  const at = props.x ?? props.points.map((_, i) => i);
  const first = at[0] ?? 0;
  const last = at[count - 1] ?? 0;
  const inset = count > 1 ? 0 : (PLOT_RIGHT - PLOT.left) / 2;
  const xOf = (i: number) => position(at[i] ?? 0, first, last, PLOT.left + 8 + inset, PLOT_RIGHT - 8 - inset);
  const y = (value: number) => position(value, 0, scale.top, PLOT_BOTTOM, PLOT.top);
  const lines = props.series.map((series) => {
    let d = '';
    let drawing = false;
    series.values.forEach((value, i) => {
      if (value === null) {
        drawing = false;
        return;
      }
      d += `${drawing ? 'L' : 'M'}${fixed(xOf(i))} ${fixed(y(value))}`;
      drawing = true;
    });
    const dots = count <= 48 ? series.values : [];
    return (
      <g key={series.label} class={`chart-series chart-tone-${series.tone}`}>
        {d && <path class="chart-line" d={d} />}
        {dots.map((value, i) =>
          value === null ? null : (
            <circle key={i} class="chart-dot" cx={fixed(xOf(i))} cy={fixed(y(value))} r="3">
              <title>{`${props.points[i]}: ${series.label} ${valueText(series, i)}`}</title>
            </circle>
          ),
        )}
      </g>
    );
  });
  return (
    <ChartFrame {...props} ticks={scale.ticks} y={y} xOf={xOf}>
      {lines}
    </ChartFrame>
  );
}

/** The axes, grid, labels, legend and table around a chart's marks. */
function ChartFrame(
  props: ChartProps & {
    readonly ticks: readonly number[];
    readonly y: (value: number) => number;
    readonly xOf: (index: number) => number;
    readonly children: ComponentChildren;
  },
) {
  const { id, points, series } = props;
  const labelled = labelledIndexes(points.length, MAX_LABELS);
  return (
    <figure class="chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>{props.title}</figcaption>
      <svg
        class="chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{props.summary}</desc>
        <text class="chart-unit" x={PLOT.left} y={PLOT.top - 8}>
          {props.unit}
        </text>
        {props.ticks.map((tick) => (
          <g key={tick}>
            <line
              class="chart-grid"
              x1={PLOT.left}
              x2={PLOT_RIGHT}
              y1={fixed(props.y(tick))}
              y2={fixed(props.y(tick))}
            />
            <text class="chart-tick" x={PLOT.left - 6} y={fixed(props.y(tick) + 4)} text-anchor="end">
              {compactNumber(tick)}
            </text>
          </g>
        ))}
        {props.children}
        <line class="chart-axis" x1={PLOT.left} x2={PLOT_RIGHT} y1={PLOT_BOTTOM} y2={PLOT_BOTTOM} />
        {labelled.map((i) => (
          <text key={i} class="chart-tick" x={fixed(props.xOf(i))} y={PLOT_BOTTOM + 18} text-anchor="middle">
            {points[i]}
          </text>
        ))}
      </svg>
      {series.length > 1 && (
        <ul class="chart-legend">
          {series.map((s) => (
            <li key={s.label}>
              <span class={`chart-swatch chart-tone-${s.tone}`} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <details class="chart-data">
        <summary>The numbers</summary>
        <Table
          caption={`${props.title} (${props.unit})`}
          head={[props.pointName, ...series.map((s) => s.label)]}
          numeric={series.map((s) => s.label)}
          rows={points.length}
          empty="No figures."
        >
          {points.map((point, i) => (
            <tr key={i}>
              <th scope="row">{point}</th>
              {series.map((s) => (
                <td key={s.label} class="num">
                  {valueText(s, i)}
                </td>
              ))}
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}

/** A value as the table shows it: its exact text when the series has one, else the number; "–" for none. */
function valueText(series: ChartSeries, i: number): string {
  const text = series.texts?.[i];
  if (text !== undefined && text !== null) return text;
  const value = series.values[i];
  return value === null || value === undefined ? '–' : String(value);
}

/** SVG coordinates to a tenth of a unit: enough on any screen, and short markup. */
function fixed(value: number): string {
  return String(Math.round(value * 10) / 10);
}
