// The package ships no types: it exports one function from the text exposition to metric families.
declare module 'parse-prometheus-text-format' {
  function parsePrometheusTextFormat(text: string): unknown[];
  export default parsePrometheusTextFormat;
}
