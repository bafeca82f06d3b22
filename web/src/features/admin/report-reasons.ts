/** The reasons a post may be reported for (the server's list) and how people read them. */
export const REASON_LABELS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate_speech: 'Hate speech',
  violence: 'Violence',
  sexual_content: 'Sexual content',
  misinformation: 'Misinformation',
  copyright: 'Copyright',
  self_harm: 'Self-harm',
  other: 'Other',
};
