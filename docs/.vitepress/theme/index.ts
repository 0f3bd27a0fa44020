import DefaultTheme from 'vitepress/theme';
import type { Theme } from 'vitepress';
import BenchChart from './BenchChart.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('BenchChart', BenchChart);
  },
} satisfies Theme;
