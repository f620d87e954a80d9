/**
 * A text message as plain text: React escapes it, so markup in a message is shown, never run. No
 * `dangerouslySetInnerHTML` anywhere in the chat.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <span style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }} data-testid="chat-text">
      {text}
    </span>
  );
}
