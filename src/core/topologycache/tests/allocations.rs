//! `getAllocations` safeguards and bit-exact values (spec §2.4 Step A, §2.5).
