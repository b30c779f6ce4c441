C     Livermore kernel 23 (2-D implicit hydrodynamics fragment), the
C     public kernel's loops and references: Koseki et al., Table 2: (5,5);
C     fig. 13.
      PROGRAM LFK23
      INTEGER N, K, J
      PARAMETER (N = 100)
      REAL ZA(101,7), ZB(101,7), ZR(101,7), ZU(101,7), ZV(101,7)
      REAL ZZ(101,7), QA
      DO 1 J = 1, 7
        DO 1 K = 1, 101
          ZA(K,J) = 0.01 * (K + J)
          ZB(K,J) = 0.1
          ZR(K,J) = 0.2
          ZU(K,J) = 0.15
          ZV(K,J) = 0.12
    1     ZZ(K,J) = 0.001 * K
      DO 23 J = 2, 6
      DO 23 K = 2, N
        QA = ZA(K,J+1)*ZR(K,J) + ZA(K,J-1)*ZB(K,J) + ZA(K+1,J)*ZU(K,J)
     .    + ZA(K-1,J)*ZV(K,J) + ZZ(K,J)
        ZA(K,J) = ZA(K,J) + .175*(QA - ZA(K,J))
   23 CONTINUE
      PRINT *, ZA(50,3), ZA(100,6), ZA(2,2)
      END
