C     Induction variables: from a constant start (written in closed form
C     in the OpenMP program) and from a start known only when it runs
C     (parallel, but the OpenMP writer leaves the loop sequential).
      PROGRAM INDS
      INTEGER N, I, K, L, IW(100)
      REAL W(300)
      N = 100
      DO 1 I = 1, 300
        W(I) = 0
    1 CONTINUE
      DO 2 I = 1, N
        IW(I) = MOD(I * 3, 7)
    2 CONTINUE
      K = 5
      DO 10 I = 1, N
        K = K + 2
        W(K) = I
   10 CONTINUE
      L = IW(7)
      DO 20 I = 1, N, 2
        L = L + 3
        W(L) = W(L) + I
   20 CONTINUE
      PRINT *, K, L, SUM(W)
      END
