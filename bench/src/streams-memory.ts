/** Two full collections (the servers run with --expose-gc), then the process's memory as JSON. */
export function memoryReport(): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return JSON.stringify(process.memoryUsage());
}
