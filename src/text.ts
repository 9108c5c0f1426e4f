/** The first line of a text (a one-line summary of an explanation or an error). */
export function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}
