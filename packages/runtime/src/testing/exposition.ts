// @svc/runtime/testing: a service's /metrics answer read as a scraper reads it (the npm package
// parse-prometheus-text-format, which throws on lines the text format does not allow) and held to the
// naming rules promtool's `check metrics` applies (docs/decisions.md, "Operations: metrics"), so `npm test`
// catches what promtool would, on machines without it.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  readonly labels?: Readonly<Record<string, string>>;
  /** Counters and gauges. */
  readonly value?: string;
  /** Histograms without labels other than `le`: bucket bound to count. */
  readonly buckets?: Readonly<Record<string, string>>;
  readonly count?: string;
  readonly sum?: string;
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly Sample[];
}

export function parseExposition(text: string): MetricFamily[] {
  return parsePrometheusTextFormat(text) as MetricFamily[];
}

/** SI prefixes: a name says its unit in the base unit (seconds, bytes), never a multiple of it. */
const UNIT_PREFIXES = ['pico', 'nano', 'micro', 'milli', 'centi', 'deci', 'deca', 'hecto', 'kilo', 'kibi'];
const BASE_UNITS = ['seconds', 'bytes', 'meters', 'metres', 'grams', 'joules', 'volts', 'amperes'];
/** Times named in other units than seconds. */
const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks'];
/** Abbreviated units, as words of a name. */
const ABBREVIATIONS = ['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd'];
const TYPE_WORDS = ['counter', 'gauge', 'histogram', 'summary'];
const SUFFIXES_OF_HISTOGRAMS = ['_bucket', '_count', '_sum'];

/**
 * The problems of an exposition, one line each, none when it is clean: it parses; every family has
 * HELP and TYPE; counters end in `_total` and nothing else does; names are snake_case without `:`,
 * with base units spelled out and no type word; `le` and `quantile` only where they belong; no series
 * twice (the same name and label set), no family declared twice.
 */
export function lintExposition(text: string): string[] {
  const problems: string[] = [];
  let families: MetricFamily[];
  try {
    families = parseExposition(text);
  } catch (error) {
    return [`does not parse: ${(error as Error).message}`];
  }
  for (const family of families) problems.push(...lintFamily(family).map((p) => `${family.name}: ${p}`));
  problems.push(...duplicates(text));
  return problems;
}

function lintFamily(family: MetricFamily): string[] {
  const { name, type } = family;
  const problems: string[] = [];
  if (family.help.trim() === '') problems.push('no HELP text');
  if (type === 'UNTYPED') problems.push('no TYPE');
  if (type === 'COUNTER' && !name.endsWith('_total')) problems.push('counter names end in "_total"');
  if (type !== 'COUNTER' && name.endsWith('_total')) problems.push('only counter names end in "_total"');
  if (/[A-Z]/.test(name)) problems.push('names are snake_case, not camelCase');
  if (name.includes(':')) problems.push('":" is for recording rules, not exported names');
  const words = name.toLowerCase().split('_');
  for (const base of BASE_UNITS)
    for (const prefix of UNIT_PREFIXES)
      if (words.includes(prefix + base)) problems.push(`use the base unit "${base}", not "${prefix}${base}"`);
  for (const unit of TIME_UNITS) if (words.includes(unit)) problems.push(`use "seconds", not "${unit}"`);
  for (const word of ABBREVIATIONS) if (words.includes(word)) problems.push(`abbreviated unit "${word}"`);
  for (const word of TYPE_WORDS)
    if (name.includes(`_${word}_`) || name.endsWith(`_${word}`))
      problems.push(`the type "${word}" in the name`);
  if (type !== 'HISTOGRAM' && type !== 'SUMMARY') {
    for (const suffix of SUFFIXES_OF_HISTOGRAMS)
      if (name.endsWith(suffix)) problems.push(`"${suffix}" is for histograms and summaries`);
  }
  for (const sample of family.metrics) {
    const labels = Object.keys(sample.labels ?? {});
    if (labels.some((label) => /[A-Z]/.test(label))) problems.push('label names are snake_case');
    if (type !== 'HISTOGRAM' && labels.includes('le'))
      problems.push('"le" is the label of histogram buckets');
    if (type !== 'SUMMARY' && labels.includes('quantile'))
      problems.push('"quantile" is the label of summaries');
  }
  return [...new Set(problems)];
}

/** A sample line: the name, its label block as written, the value and an optional timestamp. */
const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(\s+\S+)?$/;

/** Series exposed twice and families declared twice (the parser above would merge them silently). */
function duplicates(text: string): string[] {
  const problems: string[] = [];
  const series = new Set<string>();
  const declared = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+)/.exec(line)?.[1];
    if (type !== undefined) {
      if (declared.has(type)) problems.push(`${type}: declared twice`);
      declared.add(type);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const sample = SAMPLE_LINE.exec(line.trim());
    if (!sample) {
      problems.push(`not a sample line: ${line}`);
      continue;
    }
    const key = `${sample[1]}${canonicalLabels(sample[2] ?? '{}')}`;
    if (series.has(key)) problems.push(`${key}: the same series twice`);
    series.add(key);
  }
  return problems;
}

/** `{b="2",a="1"}` as `{a="1",b="2"}`, so label order does not hide a duplicate. */
function canonicalLabels(block: string): string {
  const pairs = block.slice(1, -1).match(/[a-zA-Z_][a-zA-Z0-9_]*\s*=\s*"(?:[^"\\]|\\.)*"/g) ?? [];
  return `{${pairs
    .map((pair) => pair.replace(/\s*=\s*/, '='))
    .sort()
    .join(',')}}`;
}

/**
 * The value of the counter or gauge series `name` whose labels include `labels`, summed over the
 * series that match (0 when none does): what a PromQL `sum(name{labels})` would say.
 */
export function sampleValue(
  families: readonly MetricFamily[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  const family = families.find((f) => f.name === name);
  let total = 0;
  for (const sample of family?.metrics ?? []) {
    const matches = Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value);
    if (matches) total += Number(sample.value);
  }
  return total;
}
