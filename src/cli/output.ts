/**
 * Where commands write. Stdout carries only what was asked for (a token, a listing, OK), so
 * scripts can capture it; everything else, warnings included, goes to stderr.
 */
export interface Output {
  out(line: string): Promise<void>;
  err(line: string): Promise<void>;
}

function writeLine(stream: NodeJS.WriteStream, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(`${line}\n`, (e) => (e ? reject(e) : resolve()));
  });
}

export const processOutput: Output = {
  out: (line) => writeLine(process.stdout, line),
  err: (line) => writeLine(process.stderr, line),
};
