//! The checksum that closes the Othello data files built into the binary
//! (the weight file and the opening book): FNV-1a (64 bits) of every byte
//! before it, written little-endian as the file's last 8 bytes.

/// FNV-1a of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Closes a file's bytes with their checksum.
pub fn seal(out: &mut Vec<u8>) {
    let sum = fnv1a(out);
    out.extend_from_slice(&sum.to_le_bytes());
}

/// `bytes` less their last 8, where those are the checksum of the rest;
/// `None` for a file too short or corrupted.
pub fn checked_body(bytes: &[u8]) -> Option<&[u8]> {
    let (body, sum) = bytes.split_last_chunk::<8>()?;
    (fnv1a(body) == u64::from_le_bytes(*sum)).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_reads_back_and_any_flipped_bit_is_caught() {
        // FNV-1a's published value for "a" pins the constants.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut file = b"tabula".to_vec();
        seal(&mut file);
        assert_eq!(checked_body(&file), Some(&b"tabula"[..]));
        for i in 0..file.len() * 8 {
            let mut bad = file.clone();
            bad[i / 8] ^= 1 << (i % 8);
            assert_eq!(checked_body(&bad), None, "bit {i}");
        }
        assert_eq!(checked_body(&file[..7]), None);
    }
}
