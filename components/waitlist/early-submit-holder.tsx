/**
 * The page asks for its scripts only after its first frame
 * (scripts/defer-scripts.ts), so a visitor can send a form before React has
 * hydrated it. The browser would then post it the plain way: it works, but the
 * page reloads, with no busy state and no toast. This script, inline in the
 * head, holds such a submit instead and sends it again through the form once
 * React has hydrated it; if that has not happened within
 * {@link EARLY_SUBMIT_FALLBACK_MS} (the scripts failed to load), the form
 * posts the plain way after all. Without JavaScript it never runs, and a
 * browser without `requestSubmit` posts the plain way at once.
 *
 * Forms opt in and say when they are hydrated through hydration-mark.ts.
 */
import { HOLD_SUBMIT_ATTRIBUTE, HYDRATED_ATTRIBUTE } from './hydration-mark'

export const EARLY_SUBMIT_FALLBACK_MS = 3000

const holder = `(function(d){
if(!HTMLFormElement.prototype.requestSubmit)return;
d.addEventListener('submit',function(e){
var f=e.target,held;
if(!f.hasAttribute('${HOLD_SUBMIT_ATTRIBUTE}')||f.hasAttribute('${HYDRATED_ATTRIBUTE}')||f._postPlain)return;
e.preventDefault();e.stopImmediatePropagation();
if(f._held){f._held.submitter=e.submitter;return}
held=f._held={submitter:e.submitter,since:Date.now()};
(function send(){
var hydrated=f.hasAttribute('${HYDRATED_ATTRIBUTE}');
if(!hydrated&&Date.now()-held.since<${EARLY_SUBMIT_FALLBACK_MS})return setTimeout(send,50);
f._held=null;f._postPlain=!hydrated;f.requestSubmit(held.submitter);
})();
},true);
})(document)`.replace(/\n/g, '')

export function EarlySubmitHolder() {
  return <script dangerouslySetInnerHTML={{ __html: holder }} />
}
