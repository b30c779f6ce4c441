C     Subscripts through a scalar the inner loop does not change: M is
C     set in the loop around (under a condition, or from an array), so it
C     differs between J iterations but not inside one execution of an I
C     loop. In the third nest the I loop changes M itself.
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
C     M, stepped under an IF in the J loop, lies between 0 and the step
C     times the J iterations so far: M <= 3, A(3*I + 3*J - M) >= 12
C     never meets A(J + 2).
      M = 0
      DO 40 J = 1, 5, 2
        IF (A(J) .GT. 5.0) M = M + 1
        DO 41 I = 4, 12
          A(3*I + 3*J - M) = A(J + 2) + 1.0
   41   CONTINUE
   40 CONTINUE
C     M reaches 32 in the last J iteration: A(M + 1) is A(33), which
C     the I loop writes at I = 2.
      M = 0
      DO 50 J = 1, 8
        IF (B(J) .GE. 0.0) M = M + 4
        DO 51 I = 1, 10
          A(I + 31) = A(M + 1) + 1.0
   51   CONTINUE
   50 CONTINUE
      PRINT *, M, SUM(A), SUM(B)
      END
