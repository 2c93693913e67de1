//! The TLS crypto provider every HTTPS client in the process uses: rustls on *ring*
//! (smaller than aws-lc-rs, which reqwest picks by default, and built from the same crate
//! sources on every platform). Certificates are still checked against the system's roots
//! through rustls-platform-verifier, as reqwest does by default.

use rustls::crypto::CryptoProvider;

/// Makes *ring* the process's TLS provider unless one is installed already. Call it before
/// building any `reqwest::Client`: reqwest is built without a provider of its own and
/// panics on a client built before one is installed.
pub fn ensure_crypto_provider() {
    if CryptoProvider::get_default().is_none() {
        // Err only when another thread installed one first, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_is_ring_and_installing_twice_is_harmless() {
        ensure_crypto_provider();
        ensure_crypto_provider();
        let provider = CryptoProvider::get_default().unwrap();
        assert_eq!(format!("{:?}", provider.key_provider), "Ring");
        assert!(crate::backend::http_client().is_ok());
    }
}
