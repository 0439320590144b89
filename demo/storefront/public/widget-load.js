/**
 * @module
 * What the shopper sees when `widget.js` never arrives (the worker down or unreachable while
 * the page loads): `<crypto-checkout>` stays an undefined, empty element, a blank card that
 * never recovers by itself. After the page's `load` event (which waits for every async
 * script, loaded or failed) an element still undefined gets a message and a Reload button
 * beside it; a reload once the worker answers shows the checkout.
 */

/**
 * @example
 * watchWidgetLoad(document.querySelector("crypto-checkout"));
 */
export function watchWidgetLoad(element) {
  const check = () => {
    if (customElements.get("crypto-checkout")) return;
    const note = document.createElement("p");
    note.className = "widget-missing";
    note.setAttribute("role", "alert");
    note.textContent = "The payment form could not load: the checkout service did not answer. ";
    const reload = document.createElement("button");
    reload.type = "button";
    reload.className = "button small";
    reload.textContent = "Reload";
    reload.addEventListener("click", () => location.reload());
    note.append(reload);
    element.before(note);
  };
  if (document.readyState === "complete") check();
  else addEventListener("load", check, { once: true });
}
