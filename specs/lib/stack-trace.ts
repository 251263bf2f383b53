/**
 * Whether an answer leaks a stack trace or source path (RFC 9457 §5: generators "are encouraged to avoid
 * making implementation details such as a stack dump available through the HTTP interface" — a SHOULD).
 * Used by server.500.no-stack and the observer observed.no-stack.
 */

/** Stack frames and dumps of common runtimes (Node, JVM, Python, .NET, PHP, Go, Ruby). */
export const STACK_PATTERNS: readonly RegExp[] = [
  /\n\s+at [^\n]+\(?[^\n]*:\d+:\d+\)?/, // Node / V8
  /\bat [\w$.<>]+\([\w$]+\.java:\d+\)/, // JVM
  /Traceback \(most recent call last\)/, // Python
  /\bat [\w.<>`]+\(.*\) in [^\n]+:line \d+/, // .NET
  /(?:Fatal error|Stack trace):[^\n]*#0 /s, // PHP
  /goroutine \d+ \[running\]/, // Go
  /\.rb:\d+:in `/, // Ruby
  /node_modules\/|\/src\/[\w/.-]+\.(?:js|ts):\d+/, // source paths
];

/** The first pattern the body matches, or undefined. */
export function stackTraceIn(body: string): RegExp | undefined {
  return STACK_PATTERNS.find((re) => re.test(body));
}
