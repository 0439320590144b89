/**
 * @module
 * The script-tag bundle's stand-in for `../i18n/en.ts`: only the first-paint texts
 * (`en-first.ts`), on the page's English catalogue that view chunks extend when they load
 * (`english.ts`). Typed as the whole catalogue because a key is only asked for by the view
 * that carries it; `test/widget/size.test.ts` checks that widget.js asks for no key it lacks.
 */

import type { Messages } from "../i18n/en.ts";
import { enFirst } from "../i18n/en-first.ts";
import { addEnglish, english } from "./english.ts";

addEnglish(enFirst);

export const en = english() as unknown as Messages;
