/** The emoji panel of the chat input (Unicode emoji, sent as text). */
export const EMOJI = ["😀", "😁", "😂", "🙂", "😉", "😊", "😍", "🤔", "😅", "😢", "😮", "😡", "👍", "👎", "👏", "🙏", "💪", "🤝", "👌", "✌️", "🎉", "❤️", "🔥", "⭐", "✅", "❌", "⏰", "📦", "💰", "📎"] as const;
