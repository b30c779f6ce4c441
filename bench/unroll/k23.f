C     Livermore kernel 23 (implicit hydrodynamics fragment) in a subroutine
C     called many times: the shape bench/unroll.sh times ((5,5)).
      PROGRAM K23
      INTEGER J, K, R
      REAL ZA(101,7), ZB(101,7), ZR(101,7), ZU(101,7), ZV(101,7)
      REAL ZZ(101,7), S
      DO 1 J = 1, 7
        DO 1 K = 1, 101
          ZA(K,J) = 0.01 * MOD(K + J, 9)
          ZB(K,J) = 0.1
          ZR(K,J) = 0.2
          ZU(K,J) = 0.15
          ZV(K,J) = 0.12
    1     ZZ(K,J) = 0.001 * MOD(K, 5)
      DO 2 R = 1, 200000
        CALL KERN(ZA, ZB, ZR, ZU, ZV, ZZ)
    2 CONTINUE
      S = 0.0
      DO 3 J = 1, 7
        DO 3 K = 1, 101
    3     S = S + ZA(K,J)
      PRINT *, S
      END

      SUBROUTINE KERN(ZA, ZB, ZR, ZU, ZV, ZZ)
      INTEGER J, K
      REAL ZA(101,7), ZB(101,7), ZR(101,7), ZU(101,7), ZV(101,7)
      REAL ZZ(101,7), QA
      DO 23 J = 2, 6
      DO 23 K = 2, 100
        QA = ZA(K,J+1)*ZR(K,J) + ZA(K,J-1)*ZB(K,J) + ZA(K+1,J)*ZU(K,J)
     .    + ZA(K-1,J)*ZV(K,J) + ZZ(K,J)
        ZA(K,J) = ZA(K,J) + .175*(QA - ZA(K,J))
   23 CONTINUE
      END
