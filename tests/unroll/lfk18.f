C     Livermore kernel 18 (2-D explicit hydrodynamics fragment), the
C     public kernel's loops and references: Koseki et al., Table 2: (1,2).
      PROGRAM LFK18
      INTEGER N, KN, K, J
      PARAMETER (N = 100, KN = 6)
      REAL ZA(101,7), ZB(101,7), ZP(101,7), ZQ(101,7), ZR(101,7)
      REAL ZM(101,7), ZU(101,7), ZV(101,7), ZZ(101,7), T, S
      DO 1 K = 1, 7
        DO 1 J = 1, 101
          ZP(J,K) = 0.01 * (J + K)
          ZQ(J,K) = 0.02 * (J - K)
          ZR(J,K) = 1.0 + 0.01 * J * K
          ZM(J,K) = 1.0 + 0.001 * (J + 2 * K)
          ZU(J,K) = 0.0
          ZV(J,K) = 0.0
          ZZ(J,K) = 0.5 + 0.001 * J
          ZA(J,K) = 0.0
    1     ZB(J,K) = 0.0
      T = 0.0037
      S = 0.0041
      DO 70 K = 2, KN
      DO 70 J = 2, N
        ZA(J,K) = (ZP(J-1,K+1) + ZQ(J-1,K+1) - ZP(J-1,K) - ZQ(J-1,K))
     .    * (ZR(J,K) + ZR(J-1,K)) / (ZM(J-1,K) + ZM(J-1,K+1))
        ZB(J,K) = (ZP(J-1,K) + ZQ(J-1,K) - ZP(J,K) - ZQ(J,K))
     .    * (ZR(J,K) + ZR(J,K-1)) / (ZM(J,K) + ZM(J-1,K))
   70 CONTINUE
      DO 72 K = 2, KN
      DO 72 J = 2, N
        ZU(J,K) = ZU(J,K) + S*(ZA(J,K)*(ZZ(J,K) - ZZ(J+1,K))
     .    - ZA(J-1,K)*(ZZ(J,K) - ZZ(J-1,K))
     .    - ZB(J,K)*(ZZ(J,K) - ZZ(J,K-1))
     .    + ZB(J,K+1)*(ZZ(J,K) - ZZ(J,K+1)))
        ZV(J,K) = ZV(J,K) + S*(ZA(J,K)*(ZR(J,K) - ZR(J+1,K))
     .    - ZA(J-1,K)*(ZR(J,K) - ZR(J-1,K))
     .    - ZB(J,K)*(ZR(J,K) - ZR(J,K-1))
     .    + ZB(J,K+1)*(ZR(J,K) - ZR(J,K+1)))
   72 CONTINUE
      DO 75 K = 2, KN
      DO 75 J = 2, N
        ZR(J,K) = ZR(J,K) + T*ZU(J,K)
        ZZ(J,K) = ZZ(J,K) + T*ZV(J,K)
   75 CONTINUE
      PRINT *, ZR(50,3), ZZ(99,6), ZA(2,2), ZB(77,4)
      END
