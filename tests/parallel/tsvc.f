C     Loops in the style of the TSVC vectorizer suite (s000-s4121
C     families), written for kaiseki's parallelization tests. Every value
C     is a small integer held in a REAL, so sums are exact in any order.
      PROGRAM TSVC
      INTEGER N
      PARAMETER (N = 200)
      REAL A(N), B(N), C(N), D(N), AA(N,N), BB(N,N), W(N), H(10)
      REAL S, T, X, Y, PROD, SUM1, SUM2
      INTEGER I, J, K, M, IP(N), IDX, JLAST
      DO 1 I = 1, N
        A(I) = MOD(I * 7, 11)
        B(I) = MOD(I * 5, 13) - 6
        C(I) = MOD(I, 3)
        D(I) = 0
        W(I) = 0
        IP(I) = N + 1 - I
    1 CONTINUE
      DO 2 J = 1, N
        DO 2 I = 1, N
          AA(I,J) = MOD(I + J, 5)
          BB(I,J) = 0
    2 CONTINUE
C     s000: a do-all
      DO 10 I = 1, N
        D(I) = B(I) + 1
   10 CONTINUE
C     s111: writes even, reads odd elements
      DO 11 I = 2, N, 2
        A(I) = A(I-1) + B(I)
   11 CONTINUE
C     s112: a reversed recurrence
      DO 12 I = N - 1, 1, -1
        A(I+1) = A(I) + B(I)
   12 CONTINUE
C     s113: reads an element the loop never writes
      DO 13 I = 2, N
        C(I) = A(1) + B(I)
   13 CONTINUE
C     s121: reads the element the next iteration writes (anti)
      DO 14 I = 1, N - 1
        A(I) = A(I+1) + B(I)
   14 CONTINUE
C     s1112: a reversed do-all
      DO 15 I = N, 1, -1
        D(I) = C(I) * 2
   15 CONTINUE
C     s241: statement reordering would be needed
      DO 16 I = 1, N - 1
        A(I) = B(I) * C(I)
        B(I) = A(I) * A(I+1)
   16 CONTINUE
C     s251: scalar expansion (a private temporary)
      DO 17 I = 1, N
        S = B(I) + C(I)
        D(I) = S * S
   17 CONTINUE
C     s252: the temporary carries a value to the next iteration
      T = 0
      DO 18 I = 1, N
        S = B(I) * C(I)
        A(I) = S + T
        T = S
   18 CONTINUE
C     s311: sum; s312: product
      SUM1 = 0
      DO 19 I = 1, N
        SUM1 = SUM1 + A(I)
   19 CONTINUE
      PROD = 1
      DO 20 I = 1, 10
        PROD = PROD * (MOD(IP(I), 3) + 1)
   20 CONTINUE
C     s314: max by a test; s316: min by MIN
      X = A(1)
      DO 21 I = 2, N
        IF (A(I) .GT. X) X = A(I)
   21 CONTINUE
      Y = A(1)
      DO 22 I = 2, N
        Y = MIN(Y, A(I))
   22 CONTINUE
C     s315: max with its index (maxloc)
      X = A(1)
      IDX = 1
      DO 23 I = 2, N
        IF (A(I) .GT. X) THEN
          X = A(I)
          IDX = I
        ENDIF
   23 CONTINUE
C     s319: two sums in one loop, one under a condition
      SUM1 = 0
      SUM2 = 0
      DO 24 I = 1, N
        SUM1 = SUM1 + B(I)
        IF (C(I) .GT. 0) SUM2 = SUM2 - C(I)
   24 CONTINUE
C     s321: a first-order recurrence
      DO 25 I = 2, N
        D(I) = D(I) + D(I-1)
   25 CONTINUE
C     s331: the last index found: a conditional last value
      JLAST = -1
      DO 26 I = 1, N
        IF (B(I) .LT. 0) JLAST = I
   26 CONTINUE
C     s332: a search that jumps out
      DO 27 I = 1, N
        IF (A(I) .GT. 100) GOTO 28
   27 CONTINUE
   28 CONTINUE
C     s341: packing: a conditional counter
      K = 0
      DO 29 I = 1, N
        IF (B(I) .GT. 0) THEN
          K = K + 1
          W(K) = B(I)
        ENDIF
   29 CONTINUE
C     s122-like: an induction variable
      K = 0
      DO 30 I = 1, N / 2
        K = K + 2
        W(K) = C(I)
   30 CONTINUE
C     s4112: an indirect read
      DO 31 I = 1, N
        D(I) = D(I) + B(IP(I)) * 2
   31 CONTINUE
C     s4113: an indirect write
      DO 32 I = 1, N
        A(IP(I)) = B(IP(I)) + C(I)
   32 CONTINUE
C     a histogram: an array reduction
      DO 33 I = 1, 10
        H(I) = 0
   33 CONTINUE
      DO 34 I = 1, N
        M = MOD(ABS(INT(A(I))), 10) + 1
        H(M) = H(M) + 1
   34 CONTINUE
C     a nest: the outer loop is parallel
      DO 35 J = 1, N
        DO 35 I = 1, N
          BB(I,J) = AA(I,J) + AA(I,J) * 2
   35 CONTINUE
C     a reduction over a whole nest
      S = 0
      DO 36 J = 1, N
        DO 37 I = 1, N
          S = S + BB(I,J)
   37   CONTINUE
   36 CONTINUE
C     a call of a procedure that touches only V; I/O keeps a loop out
      DO 38 I = 1, 3
        CALL TWICE(A(I))
   38 CONTINUE
      DO 39 I = 1, 2
        WRITE (*, *) I
   39 CONTINUE
      PRINT *, SUM1, SUM2, PROD, X, Y, IDX, JLAST, K, S
      PRINT *, SUM(A), SUM(B), SUM(C), SUM(D), SUM(W(1:N/2)), SUM(H)
      PRINT *, SUM(BB)
      END

      SUBROUTINE TWICE(V)
      REAL V
      V = V * 2
      END
