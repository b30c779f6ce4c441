C     Livermore kernel 8 (ADI integration), the public kernel's loops and
C     references: Koseki et al., Table 2: (1,1).
      PROGRAM LFK8
      INTEGER N, NL1, NL2, KX, KY, I
      PARAMETER (N = 100, NL1 = 1, NL2 = 2)
      REAL U1(5,101,2), U2(5,101,2), U3(5,101,2)
      REAL DU1(101), DU2(101), DU3(101)
      REAL A11, A12, A13, A21, A22, A23, A31, A32, A33, SIG
      DO 1 KY = 1, 101
        DO 1 KX = 1, 5
          DO 1 I = 1, 2
            U1(KX,KY,I) = 0.01 * (KX + KY + I)
            U2(KX,KY,I) = 0.02 * (KX - KY + I)
    1       U3(KX,KY,I) = 0.03 * (KX + 2 * KY - I)
      A11 = 0.5
      A12 = 0.33
      A13 = 0.25
      A21 = 0.2
      A22 = 0.167
      A23 = 0.141
      A31 = 0.125
      A32 = 0.111
      A33 = 0.1
      SIG = 0.8
      DO 8 KX = 2, 3
      DO 8 KY = 2, N
        DU1(KY) = U1(KX,KY+1,NL1) - U1(KX,KY-1,NL1)
        DU2(KY) = U2(KX,KY+1,NL1) - U2(KX,KY-1,NL1)
        DU3(KY) = U3(KX,KY+1,NL1) - U3(KX,KY-1,NL1)
        U1(KX,KY,NL2) = U1(KX,KY,NL1) + A11*DU1(KY) + A12*DU2(KY)
     .    + A13*DU3(KY)
     .    + SIG*(U1(KX+1,KY,NL1) - 2.*U1(KX,KY,NL1) + U1(KX-1,KY,NL1))
        U2(KX,KY,NL2) = U2(KX,KY,NL1) + A21*DU1(KY) + A22*DU2(KY)
     .    + A23*DU3(KY)
     .    + SIG*(U2(KX+1,KY,NL1) - 2.*U2(KX,KY,NL1) + U2(KX-1,KY,NL1))
        U3(KX,KY,NL2) = U3(KX,KY,NL1) + A31*DU1(KY) + A32*DU2(KY)
     .    + A33*DU3(KY)
     .    + SIG*(U3(KX+1,KY,NL1) - 2.*U3(KX,KY,NL1) + U3(KX-1,KY,NL1))
    8 CONTINUE
      PRINT *, U1(2,50,2), U2(3,99,2), U3(2,2,2)
      END
