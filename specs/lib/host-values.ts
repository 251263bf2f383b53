/**
 * Host field lines a conformant server answers with 400 (RFC 9112 §3.2), built from the target's own
 * authority. Host = uri-host [ ":" port ] (RFC 9110 §7.2); uri-host = IP-literal / IPv4address / reg-name,
 * port = *DIGIT (RFC 3986 §3.2.2, §3.2.3): each invalid value breaks that grammar at one position, so nothing
 * but the Host field is wrong.
 */

/** A name that resolves nowhere (RFC 6761 §6.4): a second Host line no server can serve. */
const ELSEWHERE = 'gatecheck.invalid';

/** Two Host lines: the target's own twice, and the target's own before another name. */
export function duplicateHostLines(own: string): readonly { label: string; lines: readonly string[] }[] {
  return [
    { label: "the target's own Host twice", lines: [own, own] },
    { label: `the target's own Host, then ${ELSEWHERE}`, lines: [own, ELSEWHERE] },
  ];
}

/** The target's authority (`host[:port]`, as in its base URL) broken at one position of the grammar each. */
export function invalidHostValues(own: string, port: string): readonly { label: string; value: string }[] {
  return [
    { label: 'userinfo before the host ("@" is outside uri-host)', value: `gatecheck@${own}` },
    { label: 'a path after the authority', value: `${own}/` },
    { label: 'a space and a word after the authority', value: `${own} x` },
    { label: 'a port that is not digits', value: port === '' ? `${own}:x` : `${own}x` },
    { label: 'a second port', value: port === '' ? `${own}:80:80` : `${own}:${port}` },
    { label: 'an IP-literal never closed', value: `[${own}` },
    {
      label: 'an IP-literal with no IPv6 address inside',
      value: port === '' ? '[gatecheck]' : `[gatecheck]:${port}`,
    },
    { label: 'a percent sign without two hex digits', value: `%zz${own}` },
    // obs-text: a byte Node's client writes as sent (latin1), outside every alternative of uri-host.
    { label: 'a byte outside ASCII', value: `\u00e9${own}` },
  ];
}
