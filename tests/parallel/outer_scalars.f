C     Subscripts through a scalar the inner loop does not change: M is
C     set in the loop around (under a condition, or from an array), so it
C     differs between J iterations but not inside one execution of an I
C     loop. In the last nest the I loop changes M itself.
      PROGRAM OUTER
      INTEGER I, J, M, IP(8)
      REAL A(300), B(300)
      DO 1 I = 1, 300
        A(I) = MOD(I*7, 11)
        B(I) = MOD(I*5, 13)
    1 CONTINUE
      DO 2 I = 1, 8
        IP(I) = MOD(7*I, 5)*10
    2 CONTINUE
      M = 0
      DO 10 J = 1, 8
        IF (A(J) .GT. 5.0) M = M + 3
        DO 11 I = 1, 10
          A(I + M) = A(I + M + 20) + 1.0
   11   CONTINUE
   10 CONTINUE
      DO 20 J = 1, 8
        M = IP(J)
        DO 21 I = 1, 10
          B(I + M) = B(I + M)*2.0 + 1.0
   21   CONTINUE
        DO 22 I = 1, 9
          B(I + M + 1) = B(I + M) + 1.0
   22   CONTINUE
   20 CONTINUE
      M = 0
      DO 30 J = 1, 5
        DO 31 I = 1, 10
          A(2*I + M) = A(2*I + M + 1) + 1.0
          IF (A(I) .GT. 9.0) M = M + 1
   31   CONTINUE
   30 CONTINUE
      PRINT *, M, SUM(A), SUM(B)
      END
