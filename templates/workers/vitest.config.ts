import { defineConfig } from 'vitest/config';

export default defineConfig({
  // vite 8 compiles decorators like tsc, metadata included, for every file this config sees.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
});
