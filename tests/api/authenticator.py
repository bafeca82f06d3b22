"""A software passkey authenticator for the API tests, independent of the server's WebAuthn code:
PyPI `soft-webauthn` (on Yubico's `fido2` for COSE keys and CBOR, and `cryptography` for P-256
ECDSA) makes the credential and the assertions.

    python authenticator.py create STATE ORIGIN [--no-uv] [--alg ES256|EdDSA|RS256]   < creation options JSON
    python authenticator.py get STATE ORIGIN [--no-uv] [--sign-count N] [--rp-id ID] < request options JSON

Each prints the browser's JSON form (`RegistrationResponseJSON` / `AuthenticationResponseJSON`)
and keeps the device (its private key, credential id, user handle, counter) in the file STATE.
soft-webauthn reports user presence only; a device that verified its user (PIN, biometrics) also
sets the UV flag, so by default the flags gain UV and the assertion is signed again over them.
`--no-uv` answers exactly what soft-webauthn makes (no user verification).
`--alg EdDSA` or `--alg RS256` makes the credential's key an Ed25519 or a 2048-bit RSA one
instead of soft-webauthn's P-256 (its COSE form by `fido2.cose`): the attested credential data is
written again with that key and every assertion signed with it.
"""

import base64
import json
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cbor, cose
from fido2.utils import sha256
from soft_webauthn import SoftWebauthnDevice

UP, UV = 0x01, 0x04


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def save(path, device):
    pem = device.private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with open(path, "w") as f:
        json.dump(
            {
                "key": pem.decode("ascii"),
                "credentialId": b64u(device.credential_id),
                "rpId": device.rp_id,
                "userHandle": b64u(device.user_handle),
                "signCount": device.sign_count,
            },
            f,
        )


def load(path):
    with open(path) as f:
        saved = json.load(f)
    device = SoftWebauthnDevice()
    device.private_key = serialization.load_pem_private_key(saved["key"].encode("ascii"), None)
    device.credential_id = unb64u(saved["credentialId"])
    device.rp_id = saved["rpId"]
    device.user_handle = unb64u(saved["userHandle"])
    device.sign_count = saved["signCount"]
    return device


def with_key(auth_data, public_key):
    """`auth_data` with its attested credential's public key replaced by `public_key` (COSE)."""
    fixed = 32 + 1 + 4 + 16
    length = int.from_bytes(auth_data[fixed : fixed + 2], "big")
    start = fixed + 2 + length
    _, rest = cbor.decode_from(auth_data[start:])
    return auth_data[:start] + cbor.encode(public_key) + rest


def sign(key, data):
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return key.sign(data)
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    return key.sign(data, ec.ECDSA(hashes.SHA256()))


def create(state, origin, uv, alg):
    options = json.load(sys.stdin)
    public_key = dict(options)
    public_key["challenge"] = unb64u(options["challenge"])
    public_key["user"] = dict(options["user"], id=unb64u(options["user"]["id"]))
    device = SoftWebauthnDevice()
    made = device.create({"publicKey": public_key}, origin)
    attestation = cbor.decode(made["response"]["attestationObject"])
    if alg != "ES256":
        if alg == "EdDSA":
            device.private_key = ed25519.Ed25519PrivateKey.generate()
            public = cose.EdDSA.from_cryptography_key(device.private_key.public_key())
        else:
            device.private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            public = cose.RS256.from_cryptography_key(device.private_key.public_key())
        attestation["authData"] = with_key(bytes(attestation["authData"]), dict(public))
    if uv:
        auth_data = bytearray(attestation["authData"])
        auth_data[32] |= UV
        attestation["authData"] = bytes(auth_data)
    save(state, device)
    print(
        json.dumps(
            {
                "id": b64u(made["rawId"]),
                "rawId": b64u(made["rawId"]),
                "type": "public-key",
                "response": {
                    "clientDataJSON": b64u(made["response"]["clientDataJSON"]),
                    "attestationObject": b64u(cbor.encode(attestation)),
                    "transports": ["internal"],
                },
                "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
            }
        )
    )


def get(state, origin, uv, sign_count, rp_id):
    options = json.load(sys.stdin)
    device = load(state)
    if sign_count is not None:
        device.sign_count = sign_count - 1
    public_key = dict(options, challenge=unb64u(options["challenge"]))
    key = device.private_key
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        # soft-webauthn signs with ECDSA: it signs with a stand-in, the real key signs below.
        device.private_key = ec.generate_private_key(ec.SECP256R1())
    if rp_id is not None:
        # Another site's RP ID: the authenticator answers for that site.
        device.rp_id = public_key["rpId"] = rp_id
    made = device.get({"publicKey": public_key}, origin)
    device.private_key = key
    response = made["response"]
    auth_data = response["authenticatorData"]
    signature = response["signature"]
    if uv or not isinstance(key, ec.EllipticCurvePrivateKey):
        auth_data = bytearray(auth_data)
        if uv:
            auth_data[32] |= UV
        auth_data = bytes(auth_data)
        signature = sign(key, auth_data + sha256(response["clientDataJSON"]))
    if rp_id is None:
        save(state, device)
    print(
        json.dumps(
            {
                "id": b64u(made["rawId"]),
                "rawId": b64u(made["rawId"]),
                "type": "public-key",
                "response": {
                    "clientDataJSON": b64u(response["clientDataJSON"]),
                    "authenticatorData": b64u(auth_data),
                    "signature": b64u(signature),
                    "userHandle": b64u(response["userHandle"]),
                },
                "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
            }
        )
    )


def main(argv):
    command, state, origin = argv[1], argv[2], argv[3]
    flags = argv[4:]
    uv = "--no-uv" not in flags
    if command == "create":
        alg = flags[flags.index("--alg") + 1] if "--alg" in flags else "ES256"
        create(state, origin, uv, alg)
    else:
        sign_count = int(flags[flags.index("--sign-count") + 1]) if "--sign-count" in flags else None
        rp_id = flags[flags.index("--rp-id") + 1] if "--rp-id" in flags else None
        get(state, origin, uv, sign_count, rp_id)


if __name__ == "__main__":
    main(sys.argv)
