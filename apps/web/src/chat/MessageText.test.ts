import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageText } from "./MessageText";

describe("message text", () => {
  it("is shown as text: markup in a message is escaped, never run", () => {
    const html = renderToStaticMarkup(
      createElement(MessageText, { text: `<img src=x onerror="alert(1)"><script>alert(2)</script> & 😀` }),
    );
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain(
      "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; 😀",
    );
  });
});
