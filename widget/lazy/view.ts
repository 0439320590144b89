/**
 * @module
 * A view that lives in an on-demand chunk: renders nothing until the chunk's script (served
 * beside widget.js, from where `script-tag.ts` found it) has run and registered the real
 * component, then renders it with the same props. Only the script-tag bundle uses these stand-ins (see `scripts/build-widget.ts`); the
 * ESM build and the tests import the views directly.
 *
 * Invariant: a chunk registers under a page global, so a second widget on the page (or a
 * second mount) reuses it without another request.
 */
import { Component, type ComponentType, h } from "preact";
import { loadScriptOnce } from "../assets.ts";
import { views } from "./registry.ts";
import { shareRuntime } from "./shared.ts";

let chunkBase = "";

/** Where the chunks are served: the origin widget.js came from (set by `script-tag.ts`). */
export function setChunkBase(origin: string): void {
  chunkBase = origin.replace(/\/+$/, "");
}

/**
 * Starts loading a chunk without rendering it (e.g. on the shopper's first interaction, so
 * the view is there by the time the answer it needs arrives).
 */
export function loadChunk(script: string): Promise<void> {
  shareRuntime();
  return loadScriptOnce(`${chunkBase}/${script}`);
}

/**
 * A stand-in for the view `name` of the chunk `script`.
 *
 * @example
 * export const TopUp = lazyView<TopUpProps>("topup", "topup.js");
 */
export function lazyView<P extends object>(name: string, script: string): ComponentType<P> {
  // A class, not hooks: widget.js carries no hooks runtime (see `shared.ts`).
  return class LazyView extends Component<P> {
    override componentDidMount() {
      if (!views()[name]) void loadChunk(script).then(() => this.forceUpdate());
    }
    render(props: P) {
      const View = views()[name];
      return View ? h(View, props) : null;
    }
  };
}
