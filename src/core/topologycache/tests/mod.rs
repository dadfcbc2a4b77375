//! Unit tests named after upstream's (`topologycache/*_test.go`, spec §7) plus the worked
//! examples of spec §6.

mod hints;
