/** The stylesheet as text: vite's `?inline`; the esbuild build loads `.css` as minified text. */
declare module "*.css?inline" {
  const text: string;
  export default text;
}
