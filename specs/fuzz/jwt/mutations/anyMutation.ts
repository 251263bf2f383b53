import fc from 'fast-check';
import type { JwtKit } from '../kit.ts';
import { isUnavailable, type JwtMutation, type MutationSource } from '../mutation.ts';
import { algNoneMutation } from './algNone.ts';
import { bitFlipMutation } from './bitFlip.ts';
import { ecdsaZeroSignatureMutation } from './ecdsaZeroSignature.ts';
import { embeddedKeyMutation } from './embeddedKey.ts';
import { keyConfusionMutation } from './keyConfusion.ts';
import { kidInjectionMutation } from './kidInjection.ts';
import { malformedStructureMutation } from './malformedStructure.ts';
import { payloadTamperMutation } from './payloadTamper.ts';
import { signatureMutation } from './signatureDamage.ts';
import { timeClaimsMutation } from './timeClaims.ts';
import { unknownCritMutation } from './unknownCrit.ts';
import { wrongIssuerAudienceMutation } from './wrongIssuerAudience.ts';

/**
 * Any mutation a MUST forbids accepting (every class above except the SHOULD-level `iat` in the future and
 * missing `iss`/`aud`), drawn from the classes the profile supports. With `escalatedOnly`, only those whose
 * claims were raised to admin (all sent to the admin path).
 */
export function anyMutation(kit: JwtKit, escalatedOnly = false): fc.Arbitrary<JwtMutation> {
  const up = escalatedOnly ? fc.constant(true) : fc.boolean();
  const sources: MutationSource[] = escalatedOnly
    ? [
        algNoneMutation(kit, up),
        payloadTamperMutation(kit, true),
        keyConfusionMutation(kit, up),
        ecdsaZeroSignatureMutation(kit, up),
        kidInjectionMutation(kit, up),
        embeddedKeyMutation(kit, up),
      ]
    : [
        algNoneMutation(kit, up),
        signatureMutation(kit),
        bitFlipMutation(kit),
        payloadTamperMutation(kit),
        keyConfusionMutation(kit, up),
        ecdsaZeroSignatureMutation(kit, up),
        timeClaimsMutation(kit),
        wrongIssuerAudienceMutation(kit),
        unknownCritMutation(kit),
        kidInjectionMutation(kit, up),
        embeddedKeyMutation(kit, up),
        malformedStructureMutation(kit),
      ];
  const available = sources.filter((s): s is fc.Arbitrary<JwtMutation> => !isUnavailable(s));
  return fc.oneof(...available);
}
