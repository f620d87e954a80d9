/**
 * Takes the app's other content beside `el` (inside #root: the public pages' header and footer) out of the
 * layout until the returned undo runs, for a phone screen of its own (the customer pages, the clerk's
 * verification). A phone's browser widens its layout viewport to the widest content, so the desktop header
 * under a phone screen made the screen wider than the phone (390 px: the send-code button was off the
 * screen). Dialogs and toasts live outside #root and stay.
 */
export function hideAround(el: HTMLElement | null): () => void {
  const hidden: { node: HTMLElement; display: string }[] = [];
  for (let node = el; node && node.parentElement && node.id !== "root"; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement?.children ?? [])) {
      if (
        sibling === node ||
        !(sibling instanceof HTMLElement) ||
        sibling.tagName === "SCRIPT" ||
        sibling.tagName === "STYLE"
      ) {
        continue;
      }
      hidden.push({ node: sibling, display: sibling.style.display });
      sibling.style.display = "none";
    }
  }
  return () => hidden.forEach(({ node, display }) => (node.style.display = display));
}
