/** A one-line progress bar on a terminal; silent when output is piped or JSON. */
export function progressBar(enabled: boolean, label: string, total: number): { tick(): void; done(): void } {
  const active = enabled && process.stderr.isTTY && total > 1;
  let count = 0;
  const draw = () => {
    const width = 30;
    const filled = Math.round((count / total) * width);
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total}`);
  };
  if (active) draw();
  return {
    tick() {
      count = Math.min(total, count + 1);
      if (active) draw();
    },
    done() {
      if (active) process.stderr.write('\n');
    },
  };
}
