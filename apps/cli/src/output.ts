/** Command output: results on stdout (pipeable), so errors on stderr never mix into JSON. */
export const print = {
  line(text = ''): void {
    process.stdout.write(text + '\n');
  },
  json(value: unknown): void {
    process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  },
};
