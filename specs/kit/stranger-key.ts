/**
 * The RSA key of `unknownKeyToken` (stimuli.ts): a key no target trusts, so that an RS* or PS* token signed with
 * it is refused for its signature alone. Generating a 2048-bit RSA key costs 0.1–0.45 CPU-s (a search for
 * primes), and every worker that sent such a token generated one — again in each fresh worker Playwright starts
 * after a failed check. This one was generated once (`crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })`,
 * exported as a JWK) and is public, like the fixtures of this repository: a target that accepted a token signed
 * with it would fail the rule, never pass it, so knowing the key gains a target nothing. No `alg`: the same key
 * signs RS256/384/512 and PS256/384/512 (RFC 7518 §3.3 and §3.5 ask only for 2048 bits or more).
 */
import type { JWK } from 'jose';

export const STRANGER_RSA_JWK: JWK = {
  kty: 'RSA',
  n: '6TGYhqJzJReVY3Q_Ps96jcj4HVVvMTHurXGkqpQsxRXL_BXU7_kT2DpRGFOLM0yR0QY1DDk4U2scuFHqsh517dY7p-4bE5Wlkg5MZNT0Y26RfTbMbGtUfIabtI4xniDaKGtYI9S1gcikGfRH-h7jqIRDGdOuKpY-69UUH5zFAmUCEFypa3VytGRIPo71VBet8HIb0JolWP75jwr3829newQFBBWWJLFMZrgXQTXwrj8Y_K-KQPsQGzVk8-VY9jGQZfukwER7OAIEzdN5Cq12hiAzikGEou-8pIsYBmCZoJXxZQUzXVbvD9hXDRFD0Dj9TwttNaJdAx-MU3ZGeVR4aw',
  e: 'AQAB',
  d: 'Mo4OAyI01FXIjUcmbveMGjD3mWRsNr4cgH2itVhqXE_daUlSYLQfGUGLUzrJctWmxyoRVhURoQQXtd4Mg5EW__jx9fYo6JYIzyFKbpG8adIOuJaoutiJ-HU2TG6HU0DMCvc6pIn4z6ov6XCMKi2ILYB_C5pYp-LqwTXwpunVzC6v0IQ3aErSZZEGs8lLlEZDFn44LosCtXUjHk8IzNkhXEO2u4bvj2M9vg6gY8J3RpMlSo_gjOGPGt_8NzBTbvjokT3D55Xijhu2v4bqRgItlz4hvlezKnpN99DTUcUj1Mb__w8PArFVk754oX8neN7nL78aH4NNiaJfykeGpY4d',
  p: '977vkEW0IZaiuOVlX_GpOxSifYxxaGC2FB78sYQryroh8Oi64lqdOLgmkeKkJWF-kcOBQTRWFVx0KhXuNDdZ5rn-vBFA5ZOngvaTL1WtmHkinbxJXXR63MRTPjdcczqUBO-Ap5LqrQK51XG_dj_j-parWnQ95-QDPt5nrzITIq0',
  q: '8PaK7_wzkyCTyhKIJ01abJMjiLP1HKxS1PF1WrBh6jSu_10gRK83loqZC2Fmo-4Bd7J1AQkloN0KnZ7kgG8Nb9TPjhCRPVqVOwH1u6LmuLEailYo2LpSaoEa0kQydqb3K8X3m51xliPSLNm84nbZC651zirzyjjFEdeFD4wSAnc',
  dp: 'eZV_9nru2ykVNM6HwN1Vo0QONrVNFt-XnCpU8z2dTEGq1JMy3FGCJUriyufCjQHa3uhmr7xintsfu2PF4mRjv4L6TAvfoIulQvWF6E4RAuo4HddA3heDEINdIwSCX56Y9A8iQZsthrj2wJSxVPQoC1wUPjEcDIjvOtRlaCqYD4U',
  dq: 'JpooieeqT4ChjHbJjxpKSSiNQcIqm0xT_L8t4LhvBzkna8t8duRnEFvlxrf03IAthgJ10hOoDow6viONUbH4whiio4yt59lSHODkgAnJ0n601MKWypmWyG8kX9kDCJUY9c9CKpDfeIEGk57SLqmBfeiWANBKu_O6RnBzZZk37WM',
  qi: 'EO4ckO7pkmU9Z1yk6AKKX6zutfMhojkRXWmSJHYsbjxcNi4GgiwQF2rqP12drac0tEBBdJjUfh2sIVILtk12YiEdrxY8V_XioXQiioVXqdmxZHJOsduaULSYuV39Ma2HRb2PYz9nl88A9EK28vv-NJskRlATrQsxo2iD1PKwS5A',
};
