/**
 * A command's output read by a program that stops reading early — `gatecheck rules --json | head`,
 * `gatecheck-mock --print-env | head -1` — is not an error of the command: the reader has what it wanted.
 * Node ignores SIGPIPE, so the write fails with EPIPE, emitted on stdout as an 'error' event that nothing
 * handles: a stack trace on stderr. The entry points (cli/main.ts, mock/cli.ts) call this first: from then on,
 * output to a closed pipe is dropped in silence and the program goes on to its own exit code.
 */

/** Errors of a write to a reader that has gone: the first one, then every write after it. */
const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

export function dropOutputToClosedPipes(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
) {
  for (const stream of streams)
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!CLOSED.has(error.code ?? '')) throw error;
    });
}
