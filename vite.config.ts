import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { lezer } from '@lezer/generator/rollup';

// One config for the app build, the Node CLI build (`vite build --ssr`) and Vitest,
// so `.grammar` imports resolve the same way everywhere.
export default defineConfig({
  plugins: [lezer(), svelte()],
  // Web Workers (the app's compiler worker) are bundled on their own and import the grammar too.
  worker: { format: 'es', plugins: () => [lezer()] },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
  },
  ssr: {
    // Node entry points keep their dependencies as runtime imports from node_modules.
    noExternal: [],
  },
  server: { host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts', 'grammar/**/*.test.ts', 'bench/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
