/** A waiver file, a baseline or an injected date that cannot be used: one line naming the file and field. */
export class GateInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GateInputError';
  }
}
