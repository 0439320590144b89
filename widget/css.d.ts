/** CSS files are bundled as text (esbuild `loader: { ".css": "text" }`). */
declare module "*.css" {
  const text: string;
  export default text;
}
