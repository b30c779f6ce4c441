C     Privatization that needs regions (spec 001, 2.2): a work array an
C     inner loop fills before the next reads it, in every iteration; the
C     same shape with the array read after the loop; a DO variable read
C     after its loop; a min whose location is never read.
      PROGRAM PRIV
      INTEGER N, I, J, K, IMIN
      PARAMETER (N = 8)
      REAL A(N,N), B(N,N), T(N), W(N), XMIN
      DO 10 J = 1, N
        DO 10 I = 1, N
          A(I,J) = REAL(MOD(3*I + 5*J, 13))
          B(I,J) = 0.0
   10 CONTINUE
C     T: written before it is read in every iteration of J, dead after
      DO 20 J = 1, N
        DO 21 I = 1, N
          T(I) = A(I,J) * 2.0
   21   CONTINUE
        DO 22 I = 1, N
          B(I,J) = T(I) + T(N + 1 - I)
   22   CONTINUE
   20 CONTINUE
C     W: the same, but read after the loop
      DO 30 J = 1, N
        DO 31 I = 1, N
          W(I) = A(J,I)
   31   CONTINUE
        DO 32 I = 1, N
          B(I,J) = B(I,J) + W(I)
   32   CONTINUE
   30 CONTINUE
C     K: read after the loop, which always runs
      DO 40 K = 1, N
        B(K,1) = B(K,1) + 1.0
   40 CONTINUE
C     IMIN: where the (last) minimum is, never read
      XMIN = 100.0
      DO 50 I = 1, N
        IF (A(I,2) .LE. XMIN) THEN
          XMIN = A(I,2)
          IMIN = I
        END IF
   50 CONTINUE
      PRINT *, SUM(B), SUM(W), K, XMIN
      END
