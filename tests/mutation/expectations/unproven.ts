/** Rules no defect can kill, with the reason; shown in the mutation matrix as unproven (docs/defects.md). */
export const UNPROVEN: Readonly<Record<string, string>> = {
  'info.order-of-checks':
    'INFO rule: it reports which check the target makes first and never fails, whatever the target does.',
  'jwt.attack.iat-future':
    'INFO rule: no RFC forbids accepting a token "issued" in the future; the rule reports and never fails.',
  'jwt.claims.wrong-type-lenient':
    'INFO rule: reading a time claim of the wrong JSON type as the valid time it carries is leniency RFC 7519 §7.2 leaves to the verifier; the rule reports which tokens were accepted and never fails.',
  'auth.scheme.separator-recovered':
    'INFO rule: RFC 9110 §2.2 lets a recipient recover the same credential from a tab or a missing space after the scheme word, or refuse it; the rule reports which and never fails.',
  'basic.base64.excess-padding':
    'INFO rule: RFC 4648 §3.3 lets a decoder ignore excess pad characters ("MAY also be ignored") or refuse them; the rule reports which and never fails.',
  'authz.403.reauth-fresh':
    'Tells a conformant target from a broken one only by state carried between two freshly minted tokens of one identity; ' +
    'every stateless bug that lets the second token in lets the first in too (authz.403.lacking-role then fails and this rule skips). ' +
    'A stateful defect would make other checks of the same run pass or fail by test scheduling, so its kill could not be asserted.',
};
