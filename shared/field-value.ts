/**
 * A field value as a recipient reads it: without its leading and trailing optional whitespace, SP and HTAB
 * (RFC 9110 §5.5: "a field value does not include leading or trailing whitespace"; OWS, §5.6.3). A field of
 * spaces and tabs only is an empty value.
 */
export function fieldValue(raw: string): string {
  return raw.replace(/^[ \t]+|[ \t]+$/g, '');
}
