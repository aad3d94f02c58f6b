/// The one part of an X.509 certificate (RFC 5280 §4.1) that pinning needs: its SubjectPublicKeyInfo, exactly as
/// encoded, the bytes whose SHA-256 a `sha256//` pin is.
struct X509Certificate: Equatable {
    /// The certificate's DER encoding.
    let der: [UInt8]
    /// The DER encoding of `tbsCertificate.subjectPublicKeyInfo`, header included.
    let subjectPublicKeyInfo: [UInt8]

    /// Reads `der`: `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature }`, and in
    /// `tbsCertificate` the optional `[0]` version, the serial number, signature, issuer, validity, subject and then
    /// the key. Nothing else is interpreted: the platform's own verification judges the rest.
    init(der: [UInt8]) throws(DERError) {
        var outer = DERReader(der)
        let certificate = try outer.next(DERReader.sequence)
        guard outer.isAtEnd else { throw .trailingBytes }
        var fields = outer.contents(of: certificate)
        let tbs = try fields.next(DERReader.sequence)
        var tbsFields = fields.contents(of: tbs)
        if tbsFields.peekTag == DERReader.contextZero { _ = try tbsFields.next() }
        _ = try tbsFields.next(DERReader.integer)
        // signature, issuer, validity, subject
        for _ in 0..<4 { _ = try tbsFields.next(DERReader.sequence) }
        let key = try tbsFields.next(DERReader.sequence)
        // The key must itself be `SEQUENCE { algorithm SEQUENCE, subjectPublicKey BIT STRING }`.
        var keyFields = tbsFields.contents(of: key)
        _ = try keyFields.next(DERReader.sequence)
        _ = try keyFields.next(0x03)
        guard keyFields.isAtEnd else { throw .trailingBytes }
        self.der = der
        subjectPublicKeyInfo = Array(der[key.encoding])
    }

    /// The certificate's pin: the SHA-256 of its SubjectPublicKeyInfo.
    var publicKeyPin: PublicKeyPin {
        PublicKeyPin(sha256: SHA256.digest(subjectPublicKeyInfo))
    }
}
