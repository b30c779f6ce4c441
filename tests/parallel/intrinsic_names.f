C     Variables named like intrinsics (TSVC s3113 keeps its maximum in
C     MAX): where MAX or MIN is a variable, OpenMP's MAX or MIN reduction
C     identifier is hidden, so such a loop gets no directive; + and *
C     are operators, which no variable hides. A reduction of an
C     assumed-size array gets no directive either (OpenMP forbids it).
      PROGRAM NAMES
      REAL A(100), MAX, XMIN, SUM
      INTEGER I, IAND
      DO 5 I = 1, 100
        A(I) = MOD(I*37, 101)
    5 CONTINUE
      MAX = ABS(A(1))
      DO 10 I = 2, 100
        IF (ABS(A(I)) .GT. MAX) MAX = ABS(A(I))
   10 CONTINUE
      XMIN = 1000.0
      DO 20 I = 1, 100
        IF (A(I) .LT. XMIN) XMIN = A(I)
   20 CONTINUE
      SUM = 0.0
      IAND = 0
      DO 30 I = 1, 100
        SUM = SUM + A(I)
        IAND = IAND + I
   30 CONTINUE
      PRINT *, MAX, XMIN, SUM, IAND
      CALL MINS(A, 100)
      CALL HISTS
      END

      SUBROUTINE MINS(A, N)
      INTEGER N, I
      REAL A(N), MIN, XMAX
      MIN = A(1)
      XMAX = A(1)
      DO 10 I = 2, N
        IF (A(I) .LT. MIN) MIN = A(I)
   10 CONTINUE
      DO 20 I = 2, N
        IF (A(I) .GT. XMAX) XMAX = A(I)
   20 CONTINUE
      PRINT *, MIN, XMAX
      END

C     A sum into an assumed-size array: OpenMP forbids the clause.
      SUBROUTINE HIST(H, K, N)
      INTEGER N, I, K(N), H(*)
      DO 10 I = 1, N
        H(K(I)) = H(K(I)) + 1
   10 CONTINUE
      END

      SUBROUTINE HISTS
      INTEGER H(7), K(100), I
      DO 10 I = 1, 7
        H(I) = 0
   10 CONTINUE
      DO 20 I = 1, 100
        K(I) = MOD(I*I, 7) + 1
   20 CONTINUE
      CALL HIST(H, K, 100)
      PRINT *, H
      END
