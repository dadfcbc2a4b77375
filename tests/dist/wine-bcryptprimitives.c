/* A stand-in for bcryptprimitives.dll under Debian 12's wine 8, which lacks it (wine >= 9 has it).
 * Rust's std (>= 1.78) gets random bytes from its ProcessPrng; every Windows >= 10 has the DLL.
 * tests/dist.rs builds this with mingw-w64 next to kubectl-topo.exe so that wine can run the real
 * binary; it forwards to RtlGenRandom (advapi32's SystemFunction036), which wine 8 implements. */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
